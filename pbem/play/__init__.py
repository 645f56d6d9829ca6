"""Play without people: self-play (random legal games through the real pipeline) and the
scenario runner (our DATC)."""
