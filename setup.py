"""Build of the compiled metric kernels (``assistant.metrics._native``) and the importer's spatial index
(``assistant.importer._spatial``); everything else is in pyproject.toml."""

from pathlib import Path

from setuptools import Extension, setup

NATIVE = Path("assistant/metrics/native")

FLAGS = ["-O2", "-ffp-contract=off", "-std=c11", "-Wall", "-Wno-unused-parameter"]

setup(ext_modules=[
    Extension(
        "assistant.metrics._native",
        sources=sorted(str(p) for p in NATIVE.glob("*.c")),
        depends=sorted(str(p) for p in NATIVE.glob("*.h")),
        extra_compile_args=FLAGS,
    ),
    # the importer's spatial index (assistant/importer/spatial.py)
    Extension("assistant.importer._spatial", sources=["assistant/importer/native/spatial.c"], extra_compile_args=FLAGS),
])
