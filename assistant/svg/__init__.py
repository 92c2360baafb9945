"""Reading and writing SVG: safe XML parsing, the tree and its namespaces, CSS, units, path extents, images.

Nothing here knows about layouts; :mod:`assistant.importer` builds a ``Document`` on top of it.
"""
