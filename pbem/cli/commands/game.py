"""Commands for running a game: keys, new, sign, apply, options, report, status, verify, reveal."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pbem import rulesets
from pbem.cli.app import GameArg, app, boundary, check_format, read_input, read_key_file
from pbem.errors import UsageError
from pbem.lazy import lazy
from pbem.orders.signatures import parse_public_key, write_keypair
from pbem.pipeline import apply as apply_pipeline
from pbem.pipeline import opening as games
from pbem.pipeline import queries
from pbem.pipeline import reveal as reveal_pipeline
from pbem.pipeline import setup as game_setup
from pbem.pipeline.game import from_gamefile as from_gamefile_
from pbem.store import gamefile
from pbem.words import public_texts

if TYPE_CHECKING:
    from pbem.delivery import bounces, deadlines, gitplay, mail, queue, transport
    from pbem.orders import signing
    from pbem.pipeline import replay
    from pbem.views import duedates
    from pbem.views import model as views
    from pbem.views import report as reports
else:
    (bounces, deadlines, duedates, gitplay, mail, queue, transport, reports, signing, replay,
     views) = (
        lazy(f"pbem.{name}") for name in ("delivery.bounces", "delivery.deadlines",
                                          "views.duedates",
                                          "delivery.gitplay", "delivery.mail",
                                          "delivery.queue", "delivery.transport",
                                          "views.report", "orders.signing", "pipeline.replay",
                                          "views.model"))


@app.command()
@boundary
def keygen(
    name: Annotated[str, typer.Argument(help="Key name; writes NAME.key and NAME.pub.")],
    email: Annotated[str | None, typer.Option(help="Your e-mail address.")] = None,
    directory: Annotated[Path, typer.Option("--dir", help="Where to write the files.")] = Path(),
) -> None:
    """Make an Ed25519 key pair: NAME.key (private, mode 0600) and NAME.pub (share it)."""
    private, public = write_keypair(directory / name, name, email)
    typer.echo(f"wrote {private} (keep it secret) and {public} (send it to the moderator)")


@app.command()
@boundary
def new(
    game: GameArg,
    player: Annotated[list[Path], typer.Option(help="A player's .pub file; repeat, in seat order.")],
    seed: Annotated[str | None, typer.Option(help="Seed text for a reproducible game.")] = None,
    open_game: Annotated[bool, typer.Option("--open", help="Keep the seed in the game file.")] = False,
    game_id: Annotated[str | None, typer.Option("--id", help="Game id (default: file name).")] = None,
    game_map: Annotated[str, typer.Option(
        "--map", help="default, 1550 (C1) or age_of_reformation (promo).")] = "default",
    astrology: Annotated[bool, typer.Option(help="Astrology variant (C5).")] = False,
    bankruptcy: Annotated[bool, typer.Option(help="Bankruptcy variant (G6).")] = False,
    open_hands: Annotated[bool, typer.Option(help="Hands are public in every report.")] = False,
    moderator: Annotated[Path | None, typer.Option(help="The moderator's .pub file.")] = None,
    ruleset: Annotated[str, typer.Option(help="pax (Pax Renaissance) or aor (Age of "
                                               "Renaissance, 3-6 players).")] = rulesets.DEFAULT,
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="A game option as KEY=VALUE (aor: end=advances|epoch1|epoch2|epoch3).")
    ] = None,
) -> None:
    """Start a game; banks are dealt by the seed. Moderated games write GAME.seed beside it."""
    from pbem.cli.commands.selfplay import parse_options

    rules = rulesets.ruleset_for(ruleset)
    keys = [parse_public_key(read_key_file(p)) for p in player]
    # The Pax Renaissance flags are options like any other; a ruleset without them says so.
    flags = {"map": game_map, "astrology": astrology, "bankruptcy": bankruptcy,
             "open_hands": open_hands}
    given = {k: v for k, v in flags.items() if v not in ("default", False)}
    unknown = sorted(k for k in given if k not in rules.default_options)
    if unknown:
        raise UsageError(f"--{unknown[0].replace('_', '-')} is not an option of {rules.title}; "
                         f"its options: {', '.join(rules.default_options)} (--option KEY=VALUE)")
    options = {**given, **parse_options(option or [])}
    mod = parse_public_key(read_key_file(moderator)) if moderator else None
    gf = game_setup.new_game(game, keys, game_id=game_id or game_setup.default_game_id(game),
                             seed_text=seed,
                             open_game=open_game, options=options, moderator=mod,
                             ruleset_name=ruleset)
    from pbem.views.report import safe_text  # start-up: jinja2 loads only for `new` here

    for entry in gf.roster["players"]:  # a name from a .pub comment: no terminal controls
        typer.echo(f"{safe_text(entry['name'])} plays {entry['id']}")
    status = queries.status(from_gamefile_(gf))
    typer.echo(f"game {gf.game_id} started: seq {gf.seq}, state {status['state']}; "
               f"{', '.join(status['waiting_for'])} to {status['decision']}")
    if not open_game:
        typer.echo(f"seed file: {game.with_suffix('.seed')} (moderator only; never share or commit)")
    elif rules.hidden_information:
        typer.echo("open game: the seed is in the game file, so anyone can compute every hand "
                   "and every roll (perfect information); reports show all hands")


@app.command()
@boundary
def sign(
    orders: Annotated[str | None, typer.Argument(
        help="Orders file, or - for standard input (not with --seal or --open).")] = None,
    key: Annotated[Path | None, typer.Option(help="Your private key file (NAME.key).")] = None,
    game: Annotated[Path | None, typer.Option(help="Game file, to fill in the header.")] = None,
    ssh: Annotated[bool, typer.Option(help="Sign as an SSH signature (SSHSIG).")] = False,
    seal: Annotated[str | None, typer.Option(
        "--seal", help="Open games: seal this line (commit); needs --game.")] = None,
    open_seal: Annotated[bool, typer.Option(
        "--open", help="Open games: open the line you sealed (reveal); needs --game.")] = False,
    force: Annotated[bool, typer.Option(
        help="Sign even lines the rules would reject now (with --game they are checked).")
    ] = False,
) -> None:
    """Sign an order block; prints the armored block to send. With --game, the lines are
    checked against the game first, so a mistake is caught before a mail round trip."""
    if key is None:
        raise UsageError("--key is needed: your private key file (NAME.key)")
    if seal is not None or open_seal:
        from pbem.orders.sealed_orders import open_orders, seal_orders

        if game is None or orders is not None or (seal is not None and open_seal):
            raise UsageError("use --seal LINE or --open with --game GAME.yaml and no orders file")
        text = seal_orders(game, key, seal) if seal is not None else open_orders(game, key)
    elif orders is None:
        raise UsageError("an orders file (or - for standard input) is needed")
    else:
        text = read_input(orders)
    signed = signing.sign_orders(text, key, game, ssh=ssh)
    if game is not None and not force and seal is None and not open_seal:
        from pbem.orders.orderblock import find_blocks  # start-up: only sign --game needs it

        block = find_blocks(signed)[0]
        opened = games.open_game(game)
        if block.seq == opened.gf.seq:  # written against the state now: check the lines
            queries.check_lines(opened, str(block.player), [line.text for line in block.lines])
    typer.echo(signed, nl=False)
    if seal is not None:
        typer.echo("note: sealed; keep the opening file beside your key until you open it "
                   "with pbem sign --open", err=True)
    if game is not None:
        opened = games.open_game(game, whole=False)
        if opened.gf.agenda and opened.gf.agenda[0].get("sealed") and opened.projection.hidden:
            typer.echo("note: a sealed decision: send this block to the moderator only",
                       err=True)


@app.command()
@boundary
def payload(
    block: Annotated[str, typer.Argument(help="File holding the signed block (any mail), or -.")],
) -> None:
    """Print the exact bytes a block's signature covers, to check an SSH-signed block with
    OpenSSH: `pbem payload block.txt | ssh-keygen -Y verify -f allowed_signers -I EMAIL -n pbem
    -s block.sig`."""
    from pbem.orders.orderblock import find_blocks  # start-up: only this command needs it

    found = [b for b in find_blocks(read_input(block)) if b.lines]
    if len(found) != 1:
        raise UsageError(f"expected one order block, found {len(found)}")
    sys.stdout.buffer.write(found[0].payload())
    sys.stdout.buffer.flush()


@app.command()
@boundary
def apply(
    game: GameArg,
    orders: Annotated[str, typer.Argument(help="File holding the block (any mail or post), or -.")],
    dry_run: Annotated[bool, typer.Option(help="Show the resulting report; write nothing.")] = False,
    fmt: Annotated[str, typer.Option("--format", help="Report format for --dry-run.")] = "text",
    commit: Annotated[bool, typer.Option(
        help="Commit the game file in its git repository, the turn summary as message.")] = False,
    send_mail: Annotated[bool, typer.Option(
        "--mail", help="Mail every player their new report (see pbem send).")] = False,
    outbox: Annotated[Path | None, typer.Option(
        help="Write the new reports as .eml files into this directory.")] = None,
    mail_config: Annotated[Path | None, typer.Option(
        "--mail-config", "--smtp-config", help="Mail settings (default: pbem.toml beside it).")
    ] = None,
) -> None:
    """Verify and apply one signed order block, then print what happened."""
    check_format(fmt)
    if dry_run and (commit or send_mail or outbox):
        raise UsageError("--dry-run writes nothing, so it cannot --commit, --mail or --outbox")
    if commit:
        gitplay.require_repository(game)
    settings = mail.mail_settings_for_sending(game, mail_config) if send_mail or outbox else None
    applied = apply_pipeline.apply_block(game, read_input(orders), dry_run=dry_run)
    if applied.note:
        typer.echo(f"note: {applied.note}")
    if dry_run:
        typer.echo(reports.render(views.report_model(applied.opened, applied.player), fmt),
                   nl=False)
        typer.echo("(dry run: nothing was written)")
        return
    for text in public_texts(applied.events):
        typer.echo(f"- {text}")
    status = queries.status(applied.opened)
    if status["over"]:
        typer.echo(f"seq {status['seq']}: the game is over; winners: "
                   f"{', '.join(status['winners'])}")
    else:
        typer.echo(f"seq {status['seq']}, state {status['state']}: waiting for "
                   f"{', '.join(status['waiting_for'])} to {status['decision']}")
    if commit:
        message = gitplay.commit_message(applied.gf, public_texts(applied.events))
        typer.echo(f"committed {gitplay.commit_game(game, message)}")
    if settings is not None:
        for line in queue.send_reports(game, transport.delivery_for(outbox, settings), settings,
                                       datetime.now(UTC), queue=True):
            typer.echo(line)


@app.command()
@boundary
def options(
    game: GameArg,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    for_player: Annotated[str | None, typer.Option(
        "--for", help="Player id (for a decision several players answer at once).")] = None,
) -> None:
    """List the legal lines for the next pending decision, one per line."""
    data = queries.legal_lines(games.open_game(game),
                               for_player.lower() if for_player else None)
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    if data.get("sealing") == "seal":
        typer.echo("# sealed: make your block with pbem sign --seal 'LINE' --key KEY --game "
                   f"{game.name}; LINE is one of:")
        data["lines"] = data["seal_lines"]
    elif data.get("sealing") == "open":
        typer.echo(f"# every seal is in: pbem sign --open --key KEY --game {game.name}")
    for line in data["lines"]:
        typer.echo(line)


@app.command()
@boundary
def report(
    game: GameArg,
    for_player: Annotated[
        str | None, typer.Option("--for", help="Player id; omit for the public report.")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="text, markdown or bbcode.")] = "text",
) -> None:
    """Render one player's turn report (or the public one)."""
    check_format(fmt)
    opened = games.open_game(game, head_only=False)
    gf = opened.gf
    if for_player is not None and gf.roster_entry(for_player.lower()) is None:
        raise UsageError(f"unknown player '{for_player}'; players: {', '.join(gf.player_ids())}")
    viewer = for_player.lower() if for_player else None
    model = views.report_model(opened, viewer)
    model["deadlines"] = duedates.deadline_rows(game, gf, viewer, datetime.now(UTC))
    typer.echo(reports.render(model, fmt), nl=False)


@app.command()
@boundary
def status(
    game: GameArg,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    now: Annotated[str | None, typer.Option(
        help="Act as if it were this time (ISO 8601); default: now.")] = None,
) -> None:
    """Who must act, on what, and by when (each player's deadline in their own time zone).
    Reading never starts a deadline clock; the mail runs (inbox, remind, timeout) do."""
    opened = games.open_game(game, whole=False)
    gf = opened.gf
    data = queries.status(opened)
    moment = deadlines.parse_time(now) if now else datetime.now(UTC)
    data["deadlines"] = duedates.deadline_rows(game, gf, None, moment)
    data["queued_mail"] = len(queue.queued(game))
    data["bouncing"] = bounces.lines(mail.Book.load(game).data)
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    typer.echo(f"game {data['game']} seq {data['seq']} state {data['state']}")
    if data["over"]:
        result = data["result"] or {}
        detail = result.get("detail") or ", ".join(
            f"{p} {n}" for p, n in (result.get("scores") or {}).items())
        typer.echo(f"over: winners {', '.join(data['winners'])} "
                   f"({result.get('kind')} victory {detail})")
    else:
        typer.echo(f"turn {data['turn']}: waiting for {', '.join(data['waiting_for'])} to "
                   f"{data['decision']}")
        if data.get("received"):
            what = "sealed bids received" if data.get("sealed") else "answers received"
            typer.echo(f"{what}: {', '.join(data['received'])}")
        for row in data["deadlines"]:
            late = " (late)" if row["late"] else ""
            typer.echo(f"deadline: {row['who']} by {row['when']}{late}")
    for line in data["bouncing"]:
        typer.echo(f"mail: {line}")
    if data["queued_mail"]:
        typer.echo(f"mail: {data['queued_mail']} message(s) queued, not sent yet; the next "
                   "mail run for this game sends them")


@app.command(name="verify")
@boundary
def verify_command(
    game: GameArg,
    secrets: Annotated[Path | None, typer.Option(
        help="The moderator's secrets (seed) file, to replay a moderated game in full.")] = None,
    expect: Annotated[list[str] | None, typer.Option(
        help="SEQ:STATE from a receipt or report you got: fail unless the game passes "
             "through it (a rolled-back file fails); repeat.")] = None,
) -> None:
    """Replay the whole log from setup: signatures, hashes, states and draws."""
    anchors = []
    for item in expect or []:
        seq, sep, state = item.partition(":")
        if not sep or not seq.strip().isdigit() or len(state.strip()) < 8:
            raise UsageError(f"--expect '{item}' should be SEQ:STATE, e.g. 17:9c1f2a7b3d4e5f60")
        anchors.append((int(seq), state.strip()))
    result = replay.verify(game, gamefile.load(game), secrets, anchors)
    how = "every draw re-derived from the seed" if result.seed_checked else \
        "draws replayed as logged (the seed is not revealed yet)"
    if not result.replayed:
        how = ("public checks only: signatures, the hash chain and opened sealed bids; with "
               "--secrets FILE or after the reveal, verify replays every turn")
    typer.echo(f"ok: {result.entries} log entries verified; {how}")


@app.command()
@boundary
def reveal(
    game: GameArg,
    force: Annotated[bool, typer.Option(help="Reveal before the game is over.")] = False,
) -> None:
    """Publish the seed (moderator, at the end of the game) so anyone can check every draw."""
    gf = reveal_pipeline.reveal(game, force=force)
    typer.echo(f"seed revealed at seq {gf.seq}; `pbem verify {game}` now re-derives every draw")
