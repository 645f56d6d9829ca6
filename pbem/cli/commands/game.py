"""Commands for running a game: keys, new, sign, apply, options, report, status, verify, reveal."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

import pbem.cli.hot as hot  # the module: the package pbem.cli builds the app
from pbem import rulesets
from pbem.cli.typer_app import GameArg, app, boundary, read_input, read_key_file
from pbem.errors import UsageError
from pbem.lazy import lazy

if TYPE_CHECKING:
    from pbem.orders import signatures, signing
    from pbem.pipeline import game as game_pipeline
    from pbem.pipeline import opening as games
    from pbem.pipeline import queries
    from pbem.pipeline import reveal as reveal_pipeline
    from pbem.pipeline import setup as game_setup
else:  # start-up: `pbem --help` and the other commands need none of these
    signatures, signing = lazy("pbem.orders.signatures"), lazy("pbem.orders.signing")
    game_pipeline, games = lazy("pbem.pipeline.game"), lazy("pbem.pipeline.opening")
    queries, reveal_pipeline = lazy("pbem.pipeline.queries"), lazy("pbem.pipeline.reveal")
    game_setup = lazy("pbem.pipeline.setup")


@app.command()
@boundary
def keygen(
    name: Annotated[str, typer.Argument(help="Key name; writes NAME.key and NAME.pub.")],
    email: Annotated[str | None, typer.Option(help="Your e-mail address.")] = None,
    directory: Annotated[Path, typer.Option("--dir", help="Where to write the files.")] = Path(),
    language: Annotated[str | None, typer.Option(
        help="The language you read your reports and mail in (e.g. hu); written into "
             "NAME.pub, so a game begun with it gives your seat that language.")] = None,
) -> None:
    """Make an Ed25519 key pair: NAME.key (private, mode 0600) and NAME.pub (share it)."""
    if language is not None:
        from pbem import i18n  # start-up: only a language preference needs the catalogs

        language = i18n.check_language(language.lower())
    private, public = signatures.write_keypair(directory / name, name, email, language)
    fingerprint = signatures.parse_public_key(public.read_text()).fingerprint()  # as `bot on` names it
    typer.echo(f"wrote {private} (keep it secret) and {public} (send it to the moderator); "
               f"its fingerprint is {fingerprint}")


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
    absence: Annotated[str | None, typer.Option(
        help="Each player's absence allowance in this game, e.g. 21d (`away until DATE`).")
    ] = None,
    language: Annotated[str | None, typer.Option(
        help="The game's language (e.g. hu): the public post's, and each seat's that has no "
             "language of its own (order lines stay as written). Default: English.")] = None,
) -> None:
    """Start a game; banks are dealt by the seed. Moderated games write GAME.seed beside it."""
    from pbem.cli.commands.selfplay import parse_options

    rules = rulesets.ruleset_for(ruleset)
    keys = [signatures.parse_public_key(read_key_file(p)) for p in player]
    # The Pax Renaissance flags are options like any other; a ruleset without them says so.
    flags = {"map": game_map, "astrology": astrology, "bankruptcy": bankruptcy,
             "open_hands": open_hands}
    given = {k: v for k, v in flags.items() if v not in ("default", False)}
    unknown = sorted(k for k in given if k not in rules.default_options)
    if unknown:
        raise UsageError(f"--{unknown[0].replace('_', '-')} is not an option of {rules.title}; "
                         f"its options: {', '.join(rules.default_options)} (--option KEY=VALUE)")
    options = {**given, **parse_options(option or [])}
    mod = signatures.parse_public_key(read_key_file(moderator)) if moderator else None
    gf = game_setup.new_game(game, keys, game_id=game_id or game_setup.default_game_id(game),
                             seed_text=seed,
                             open_game=open_game, options=options, moderator=mod,
                             ruleset_name=ruleset, absence=absence,
                             language=language.lower() if language is not None else None)
    from pbem.views.report import safe_text  # start-up: jinja2 loads only for `new` here

    for entry in gf.roster["players"]:  # a name from a .pub comment: no terminal controls
        typer.echo(f"{safe_text(entry['name'])} plays {entry['id']}")
    status = queries.status(game_pipeline.from_gamefile(gf))
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
    hot.apply(game, orders, dry_run, fmt, commit, send_mail, outbox, mail_config)


@app.command()
@boundary
def options(
    game: GameArg,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    for_player: Annotated[str | None, typer.Option(
        "--for", help="Player id (for a decision several players answer at once).")] = None,
) -> None:
    """List the legal lines for the next pending decision, one per line."""
    hot.options(game, as_json, for_player)


@app.command()
@boundary
def report(
    game: GameArg,
    for_player: Annotated[
        str | None, typer.Option("--for", help="Player id; omit for the public report.")
    ] = None,
    fmt: Annotated[str, typer.Option(
        "--format", help="text, markdown, bbcode, bgg or html (one page with the board).")
    ] = "text",
    seq: Annotated[int | None, typer.Option(
        help="The board as it stood after this seq (no menu: it is history).")] = None,
    lang: Annotated[str | None, typer.Option(
        "--lang", help="The reader's language: en or hu (order lines stay as written); "
                       "default: the --for player's own (pbem roster --language), else the "
                       "game's.")] = None,
) -> None:
    """Render one player's turn report (or the public one), now or as it stood at --seq."""
    hot.report(game, for_player, fmt, seq, lang)


@app.command(name="log")
@boundary
def log_command(
    game: GameArg,
    since: Annotated[int, typer.Option(help="Start at this seq.")] = 0,
    for_player: Annotated[str | None, typer.Option(
        "--for", help="The reader (a player id); the log shows only what every player may "
                      "read, so no reader sees another's hidden cards.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON list.")] = False,
) -> None:
    """What happened, seq by seq: the public events, the market's refills and the choices."""
    from pbem.views.past import log_lines  # start-up: only this command reads the whole log

    opened = games.open_game(game, head_only=False, whole=False)
    hot.reader(opened.gf, for_player)
    rows = log_lines(opened, since)
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False))
        return
    for row in rows:
        who = str(row["player"] or row["kind"]).title()
        if row["taken_back"] is not None:  # issue 24: the log keeps what a takeback undid
            from pbem import i18n  # start-up: only a log with a takeback says it

            who += ", " + i18n.translations(i18n.SOURCE).gettext(
                "taken back at seq {seq}").format(seq=row["taken_back"])
        typer.echo(f"seq {row['seq']} ({who}):")
        for text in row["texts"] or ["(nothing to tell)"]:
            typer.echo(f"  {text}")


@app.command()
@boundary
def status(
    game: GameArg,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    now: Annotated[str | None, typer.Option(
        help="Act as if it were this time (ISO 8601); default: now.")] = None,
    lang: Annotated[str | None, typer.Option(
        help="The language of the text (not --json): en, hu; default: the game's.")] = None,
) -> None:
    """Who must act, on what, and by when (each player's deadline in their own time zone).
    Reading never starts a deadline clock; the mail runs (inbox, remind, timeout) do."""
    hot.status(game, as_json, now, lang)


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
    hot.verify(game, secrets, expect)


@app.command()
@boundary
def reveal(
    game: GameArg,
    force: Annotated[bool, typer.Option(help="Reveal before the game is over.")] = False,
) -> None:
    """Publish the seed (moderator, at the end of the game) so anyone can check every draw."""
    gf = reveal_pipeline.reveal(game, force=force)
    typer.echo(f"seed revealed at seq {gf.seq}; `pbem verify {game}` now re-derives every draw")
