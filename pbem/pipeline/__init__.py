"""The one pipeline between the engine and the players: set up, find, authenticate, check the
turn, adjudicate, append the log entry, store; timeouts, replacement, reveal, replay (verify)."""
