"""Age of Renaissance (Avalon Hill, 1996): catalog of components and battle dice."""
