"""Text as SVG draws it: fonts and advances, line breaking, positioned and flowed text layout."""
