"""Game-tree searchers on one surface (see ``plyscope.engine.search.base``) and their registry."""

from plyscope.engine.search.base import AlgorithmInfo, Limit, Node, Param, Result, Searcher, SearchError, Stats, Step

__all__ = ["AlgorithmInfo", "Limit", "Node", "Param", "Result", "SearchError", "Searcher", "Stats", "Step"]
