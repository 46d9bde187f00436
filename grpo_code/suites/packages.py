"""The modules a task's Python code imports, and the modules a suite's packages provide.

A suite names the third-party packages its programs and tests import (``packages`` in
suite.yaml, pinned: ``sandbox.image.check_pins``), and they run in the image of those packages.
What a test, a reference solution, a prelude, a checker or the prompt's code imports is read
statically here: ``import x`` and ``from x import y`` anywhere in the code (at its top level or in
a function), but not an import inside a ``try`` that catches ``ImportError`` (an optional one), a
relative import, nor a dynamic one (``importlib.import_module``, ``__import__``). A module is
there when the standard library has it (``sys.stdlib_module_names``) or a named package provides
it (``modules_of``); ``tasks.check_imports`` refuses the rest when the suite loads.
"""

from __future__ import annotations

import ast
import functools
import re
import sys

# Packages whose modules are not named after them (PEP 503 names); every other package provides
# the module of its own name, ``-`` as ``_`` (``more-itertools`` -> ``more_itertools``), in any case.
MODULES: dict[str, tuple[str, ...]] = {
    "absl-py": ("absl",),
    "attrs": ("attr", "attrs"),
    "beautifulsoup4": ("bs4",),
    "dnspython": ("dns",),
    "faiss-cpu": ("faiss",),
    "ffmpeg-python": ("ffmpeg",),
    "gitpython": ("git",),
    "google-api-python-client": ("googleapiclient",),
    "grpcio": ("grpc",),
    "imbalanced-learn": ("imblearn",),
    "kafka-python": ("kafka",),
    "matplotlib": ("matplotlib", "mpl_toolkits", "pylab"),
    "mysql-connector-python": ("mysql",),
    "mysqlclient": ("MySQLdb",),
    "odfpy": ("odf",),
    "opencv-contrib-python": ("cv2",),
    "opencv-contrib-python-headless": ("cv2",),
    "opencv-python": ("cv2",),
    "opencv-python-headless": ("cv2",),
    "paho-mqtt": ("paho",),
    "pdfminer-six": ("pdfminer",),
    "pillow": ("PIL",),
    "protobuf": ("google",),
    "psycopg2-binary": ("psycopg2",),
    "pycairo": ("cairo",),
    "pycryptodome": ("Crypto",),
    "pycryptodomex": ("Cryptodome",),
    "pyenchant": ("enchant",),
    "pygobject": ("gi",),
    "pyjwt": ("jwt",),
    "pymongo": ("pymongo", "bson", "gridfs"),
    "pymupdf": ("fitz", "pymupdf"),
    "pyopenssl": ("OpenSSL",),
    "pyserial": ("serial",),
    "python-dateutil": ("dateutil",),
    "python-docx": ("docx",),
    "python-engineio": ("engineio",),
    "python-json-logger": ("pythonjsonlogger",),
    "python-levenshtein": ("Levenshtein",),
    "python-magic": ("magic",),
    "python-multipart": ("multipart",),
    "python-pptx": ("pptx",),
    "python-slugify": ("slugify",),
    "python-snappy": ("snappy",),
    "python-socketio": ("socketio",),
    "pyusb": ("usb",),
    "pywavelets": ("pywt",),
    "pyxdg": ("xdg",),
    "pyyaml": ("yaml",),
    "pyzmq": ("zmq",),
    "ruamel-yaml": ("ruamel",),
    "scikit-fuzzy": ("skfuzzy",),
    "scikit-image": ("skimage",),
    "scikit-learn": ("sklearn",),
    "scikit-optimize": ("skopt",),
    "setuptools": ("setuptools", "pkg_resources", "_distutils_hack"),
    "tensorflow-cpu": ("tensorflow",),
    "umap-learn": ("umap",),
    "websocket-client": ("websocket",),
}
_PROVIDER = {module: package for package, modules in reversed(MODULES.items()) for module in modules}
_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


def modules_of(package: str) -> tuple[str, ...]:
    """The top-level modules a package provides (``name`` or a pin ``name==version``)."""
    name = re.sub(r"[-_.]+", "-", package.partition("==")[0].strip()).lower()
    return MODULES.get(name, (name.replace("-", "_"),))


def package_of(module: str) -> str:
    """The package that provides ``module``, as pip names it (for a message: the likeliest one)."""
    return _PROVIDER.get(module, module.replace("_", "-").lower())


@functools.lru_cache(maxsize=64)
def available(packages: tuple[str, ...]) -> frozenset[str]:
    """The top-level modules task code may import, lower case: the standard library's and those
    of ``packages`` (pins)."""
    return frozenset(m.lower() for m in sys.stdlib_module_names | {m for p in packages for m in modules_of(p)})


class _Imports(ast.NodeVisitor):
    """Each top-level module the code imports and the line of its first import, in order."""

    def __init__(self) -> None:
        self.found: dict[str, int] = {}

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.found.setdefault(alias.name.partition(".")[0], node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level == 0 and node.module:
            self.found.setdefault(node.module.partition(".")[0], node.lineno)

    def visit_Try(self, node: ast.Try) -> None:
        self._try(node)

    def visit_TryStar(self, node: ast.TryStar) -> None:
        self._try(node)

    def _try(self, node: ast.Try | ast.TryStar) -> None:
        optional = any(_catches_import_error(handler.type) for handler in node.handlers)
        for child in ([] if optional else node.body) + node.handlers + node.orelse + node.finalbody:
            self.visit(child)


def _catches_import_error(caught: ast.expr | None) -> bool:
    if caught is None:  # a bare except
        return True
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return any(isinstance(n, ast.Name) and n.id in _IMPORT_ERRORS for n in names)


@functools.lru_cache(maxsize=65536)
def imported_modules(code: str) -> tuple[tuple[str, int], ...]:
    """``(top-level module, line of its first import)`` for each module ``code`` imports, in the
    order of their first imports (none: code that does not parse, whose own check reports it)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    visitor = _Imports()
    visitor.visit(tree)
    return tuple(visitor.found.items())


def first_missing(code: str, modules: frozenset[str]) -> tuple[str, int] | None:
    """The first module ``code`` imports that is not in ``modules`` (``available``) and its line;
    None when every one is."""
    return next(((m, line) for m, line in imported_modules(code) if m.lower() not in modules), None)
