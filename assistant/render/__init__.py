"""Pixels: cairo rendering without file or network access, and the annotated debugging views.

The metrics read renders from here (contrast against what is drawn behind the text); the output
formats in :mod:`assistant.app.formats` write PNG and PDF through it.
"""
