"""The explorer's screens: explore (and help and setup dialogs)."""
