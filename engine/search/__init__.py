"""Game-tree searchers on one surface (see ``plyscope.engine.search.base``) and their registry."""

from plyscope.engine.search.base import Limit, Node, Result, Searcher, SearchError, Stats, Step
from plyscope.engine.search.entry import AlgorithmInfo, Param

__all__ = ["AlgorithmInfo", "Limit", "Node", "Param", "Result", "SearchError", "Searcher", "Stats", "Step"]
