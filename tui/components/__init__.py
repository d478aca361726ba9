"""Parts of screens, each owning one behaviour several screens share: its state, its actions and its keys.

A screen composes them around the widgets they act on and keeps only its own layout and actions
(``plyscope.tui.components.base.Component``).
"""
