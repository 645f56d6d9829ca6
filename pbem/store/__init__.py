"""The game store: the game file (YAML, hash, lock, atomic write), the seed and secrets files,
the public projection of hidden information, and the typed log entries."""
