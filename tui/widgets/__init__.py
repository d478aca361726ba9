"""Reusable widgets: each takes its searcher or state as data (no global app state), for split panes too."""
