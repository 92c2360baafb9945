"""Build of the compiled metric kernels (``assistant.metrics._native``); everything else is in pyproject.toml."""

from pathlib import Path

from setuptools import Extension, setup

NATIVE = Path("assistant/metrics/native")

setup(ext_modules=[Extension(
    "assistant.metrics._native",
    sources=sorted(str(p) for p in NATIVE.glob("*.c")),
    depends=sorted(str(p) for p in NATIVE.glob("*.h")),
    extra_compile_args=["-O2", "-ffp-contract=off", "-std=c11", "-Wall", "-Wno-unused-parameter"],
)])
