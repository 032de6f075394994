"""The games that ship with kum_widget, each its own package on the core."""
