"""plyscope's engine: games, evaluators and game-tree searchers.  No UI code lives here."""
