"""Build the sandbox image from the project's Dockerfile, online or offline.

The tag carries a hash of everything baked into the image (the Dockerfile and the folder
``sandbox/inside``), so a changed runner is never tested against a stale image. The Dockerfile is
the top-level one of a source checkout, or the copy that an installed wheel carries inside this
package; either way the tag is the same. Where the Dockerfile's base
(``debian:bookworm-slim``) cannot be pulled, the base is made with ``debootstrap`` and
``docker import`` (cached as ``grpo-code-base:bookworm``) and the same Dockerfile is built on it.

A suite whose programs and tests import third-party libraries names them, pinned
(``name==version``), and gets an image of its own: this one (the *lean* image) with those packages
installed by pip and nothing else changed (``build_image(packages=...)``), tagged by the lean tag
and the sorted pins, built once while PyPI is reachable and used offline from then on. The lean
image stays the default.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import re
import shlex
import shutil
import ssl
import subprocess
import tarfile
import tempfile
import urllib.request
from collections.abc import Callable, Iterable
from pathlib import Path

from sandbox.types import ImageMissing, SandboxError

log = logging.getLogger(__name__)

IMAGE_REPOSITORY = "grpo-code-sandbox"
DEFAULT_BASE = "debian:bookworm-slim"
BOOTSTRAP_BASE = "grpo-code-base:bookworm"
DEBIAN_SUITE = "bookworm"
PACKAGE_DIR = Path(__file__).resolve().parent
BUILD_COMMAND = "grpo-code sandbox build"
# pip, which installs a suite's packages in a throwaway stage of the build (the lean image has none):
# a pinned wheel, fetched by the host and checked against its sha256.
PIP_WHEEL = "pip-24.3.1-py3-none-any.whl"
PIP_URL = ("https://files.pythonhosted.org/packages/ef/7d/500c9ad20238fcfcb4cb9243eede163594d7020ce87bd9610c9e02771876/"
           + PIP_WHEEL)
PIP_SHA256 = "3790624780082365f47549d032f3770eeb2b1e8bd1f7b2e02dace1afa361b4ed"
_PIN = re.compile(r"(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)==(?P<version>(?:[0-9]+!)?[0-9]+(?:\.[0-9]+)*"
                  r"(?:(?:a|b|rc)[0-9]+)?(?:\.post[0-9]+)?(?:\.dev[0-9]+)?(?:\+[a-z0-9]+(?:\.[a-z0-9]+)*)?)\Z",
                  re.IGNORECASE)
# The image of a suite's packages: pip (run from its wheel) installs them under a root of their own
# in a stage that is thrown away (labelled, so that its images go once the build is done), their
# bytecode compiled for the paths they will have; only that tree is copied onto the lean image.
INSTALL_LABEL = "grpo-code.install-stage"
PACKAGES_DOCKERFILE = """\
# {tag}: the sandbox image {lean} with these packages and nothing else changed (sandbox/image.py)
FROM {lean} AS install
LABEL {label}="{tag}"
COPY {files} /tmp/install/
RUN {env}python3 /tmp/install/{pip}/pip install --no-cache-dir --no-compile --disable-pip-version-check \\
      --root-user-action=ignore --root /tmp/install/root --requirement /tmp/install/requirements.txt \\
 && python3 -m compileall -q --invalidation-mode unchecked-hash -s /tmp/install/root -p / /tmp/install/root
FROM {lean}
COPY --from=install /tmp/install/root/ /
"""

Progress = Callable[[str], None]


def project_root() -> Path:
    """The folder that holds the ``sandbox`` package: a source checkout, or ``site-packages``.

    The files baked into the image are named relative to it (``sandbox/inside/runner.py``), in a
    checkout and in an installed wheel alike, so both give the same image tag.
    """
    return PACKAGE_DIR.parent


def dockerfile_path() -> Path:
    """The sandbox Dockerfile: the copy an installed wheel carries (``sandbox/Dockerfile``), else
    the top-level one of a source checkout.

    Raises:
        SandboxError: neither is there.
    """
    for path in (PACKAGE_DIR / "Dockerfile", project_root() / "Dockerfile"):
        if path.is_file():
            return path
    raise SandboxError(
        f"the sandbox Dockerfile is neither at {PACKAGE_DIR / 'Dockerfile'} (an installed grpo-code) nor at "
        f"{project_root() / 'Dockerfile'} (a source checkout): reinstall grpo-code, or set "
        "GRPO_CODE_SANDBOX_IMAGE to an image you built")


def baked_files() -> tuple[str, ...]:
    """The project files the Dockerfile's ``COPY`` instructions bake into the image (paths from
    the project root, sorted; a folder stands for every file under it, caches left out): the
    build context holds them and the image tag hashes them."""
    instructions = dockerfile_path().read_text(encoding="utf-8").replace("\\\n", " ").splitlines()
    sources = [token for line in instructions if line.lstrip().upper().startswith("COPY ")
               for token in line.split()[1:-1] if token.startswith("sandbox/")]
    root = project_root()
    files: set[str] = set()
    for source in sources:
        path = root / source
        if path.is_dir():
            files.update(f.relative_to(root).as_posix() for f in path.rglob("*")
                         if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc")
        else:
            files.add(source)
    return tuple(sorted(files))


def check_pin(pin: object) -> str:
    """One package as a suite names it: ``name==version``, an exact pin (no range, wildcard,
    extra, marker or URL). Returns it as the tag and pip take it: the name normalized (PEP 503:
    lower case, each run of ``-_.`` one ``-``).

    Raises:
        ValueError: one line saying what is wrong and the form it takes.
    """
    match = _PIN.match(pin.strip()) if isinstance(pin, str) else None
    if match is None:
        got = repr(pin) if isinstance(pin, str) else f"{type(pin).__name__} {pin!r}"
        raise ValueError(f"expected an exact pin, name==version (e.g. numpy==2.2.6; no range, wildcard, extra, marker "
                         f"or URL), got {got}")
    name = re.sub(r"[-_.]+", "-", match["name"]).lower()
    return f"{name}=={match['version'].lower()}"


def check_pins(pins: Iterable[object]) -> tuple[str, ...]:
    """Packages as a suite names them (``check_pin`` each), sorted: the form the image's tag hashes.

    Raises:
        ValueError: a pin that is not exact, or a package named twice.
    """
    checked = sorted({check_pin(pin) for pin in pins})
    names = [pin.partition("==")[0] for pin in checked]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"{', '.join(twice)} pinned to more than one version: name each package once")
    return tuple(checked)


def _lean_tag() -> str:
    override = os.environ.get("GRPO_CODE_SANDBOX_IMAGE")
    if override:
        return override
    digest = hashlib.sha256()
    digest.update(b"Dockerfile\0" + dockerfile_path().read_bytes() + b"\0")
    for name in baked_files():
        digest.update(name.encode() + b"\0" + (project_root() / name).read_bytes() + b"\0")
    return f"{IMAGE_REPOSITORY}:{digest.hexdigest()[:12]}"


def image_tag(packages: Iterable[str] = ()) -> str:
    """The tag of the sandbox image: the lean one, ``grpo-code-sandbox:<12 hex>`` (a hash of the
    Dockerfile and the files it copies in; ``GRPO_CODE_SANDBOX_IMAGE`` overrides it: an image built
    elsewhere), or with ``packages`` (pins, ``check_pins``) the image of those packages on it,
    ``grpo-code-sandbox:<the lean one's 12 hex>-<12 hex>``, a hash of the sorted pins and of how
    they are installed (``PACKAGES_DOCKERFILE``, ``PIP_WHEEL``).

    Raises:
        ValueError: a pin that is not exact (``check_pins``).
    """
    lean = _lean_tag()
    pins = check_pins(packages)
    if not pins:
        return lean
    repository, _, lean_id = lean.rpartition(":")
    if repository != IMAGE_REPOSITORY:  # an override: its whole name stands for it
        lean_id = hashlib.sha256(lean.encode()).hexdigest()[:12]
    pins_id = hashlib.sha256("\n".join((PACKAGES_DOCKERFILE, PIP_WHEEL, *pins)).encode()).hexdigest()[:12]
    return f"{IMAGE_REPOSITORY}:{lean_id}-{pins_id}"


def build_command(packages: Iterable[str] = ()) -> str:
    """The command that builds the image of ``packages`` (pins; none: the lean image)."""
    pins = check_pins(packages)
    return f"{BUILD_COMMAND} --packages {' '.join(pins)}" if pins else BUILD_COMMAND


def image_exists(client, tag: str | None = None) -> bool:
    """Whether the daemon of ``client`` has the image ``tag`` (default: this version's)."""
    import docker.errors

    try:
        client.images.get(tag or image_tag())
        return True
    except docker.errors.ImageNotFound:
        return False


def require_image(client, tag: str | None = None, packages: Iterable[str] = ()) -> str:
    """Return the tag of the sandbox image (``tag``, default: ``image_tag(packages)``); raise
    ``ImageMissing`` saying how to build it.

    Raises:
        ImageMissing: the daemon does not have it; the message holds the command that builds it.
        ValueError: a pin that is not exact (``check_pins``).
    """
    pins = check_pins(packages)
    tag = tag or image_tag(pins)
    if not image_exists(client, tag):
        what = f"with {', '.join(pins)} on this version's image" if pins else "it matches this version of the runner"
        raise ImageMissing(f"the sandbox image {tag} is not built ({what}). Build it with: {build_command(pins)}")
    return tag


def _build_context() -> io.BytesIO:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        tar.add(dockerfile_path(), arcname="Dockerfile")
        for rel in baked_files():
            tar.add(project_root() / rel, arcname=rel)
    buf.seek(0)
    return buf


def _base_available(client, base: str, progress: Progress) -> bool:
    import docker.errors

    try:
        client.images.get(base)
        return True
    except docker.errors.ImageNotFound:
        pass
    repository, _, tag = base.partition(":")
    progress(f"pulling {base}")
    try:
        client.images.pull(repository, tag=tag or "latest")
        return True
    except docker.errors.APIError as e:
        progress(f"cannot pull {base} ({str(e).splitlines()[0][:160]}); making a base with debootstrap")
        return False


def debian_mirror() -> str:
    """The Debian mirror for debootstrap: ``GRPO_CODE_DEBIAN_MIRROR`` or deb.debian.org."""
    return os.environ.get("GRPO_CODE_DEBIAN_MIRROR", "http://deb.debian.org/debian")


def default_cache_dir() -> Path:
    """Where image builds keep what they fetch: ``GRPO_CODE_CACHE``, else ``~/.cache/grpo-code``."""
    return Path(os.environ.get("GRPO_CODE_CACHE", Path.home() / ".cache" / "grpo-code"))


def bootstrap_base(client, progress: Progress, cache_dir: Path | None = None) -> str:
    """Make ``grpo-code-base:bookworm`` with debootstrap + docker import; returns its tag.

    Raises:
        SandboxError: debootstrap is missing, not run as root, or fails.
    """
    if shutil.which("debootstrap") is None:
        raise SandboxError("debootstrap is not installed; install it (apt-get install debootstrap) "
                           "or make a registry with debian:bookworm-slim reachable")
    if os.geteuid() != 0:
        raise SandboxError("making the base image with debootstrap needs root; run "
                           "`sudo grpo-code sandbox build`, or pull debian:bookworm-slim first")
    cache_dir = cache_dir or default_cache_dir()
    cache_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir, prefix="rootfs-") as tmp:
        rootfs = Path(tmp) / "rootfs"
        progress(f"debootstrap {DEBIAN_SUITE} from {debian_mirror()} (about a minute)")
        cmd = ["debootstrap", "--variant=minbase", DEBIAN_SUITE, str(rootfs), debian_mirror()]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise SandboxError(f"debootstrap failed (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
        progress(f"docker import -> {BOOTSTRAP_BASE}")
        tar_path = Path(tmp) / "rootfs.tar"
        subprocess.run(["tar", "-C", str(rootfs), "-cf", str(tar_path), "."], check=True)
        repository, _, tag = BOOTSTRAP_BASE.partition(":")
        client.api.import_image_from_file(str(tar_path), repository=repository, tag=tag)
    return BOOTSTRAP_BASE


def build_image(client, progress: Progress | None = None, base: str | None = None,
                force: bool = False, packages: Iterable[str] = ()) -> str:
    """Build the sandbox image (if it is not built yet, or ``force``); returns its tag.

    With ``packages``, the image of those packages on the lean image (``image_tag(packages)``):
    the lean image is built first if it is missing, then pip installs the packages from PyPI
    (its index: ``PIP_INDEX_URL`` where set) in a stage of their own; ``force`` then rebuilds only
    the packages' image.

    Args:
        client: a ``docker.DockerClient``.
        progress: called with one line of text per build step.
        base: the lean image's base; default ``debian:bookworm-slim``, or the bootstrapped base
            when that cannot be pulled.
        force: rebuild even if the tag exists.
        packages: pins, ``name==version`` (``check_pins``); none: the lean image.

    Raises:
        SandboxError: the build failed (the message holds the build's last output), or pip's
            wheel could not be fetched.
        ValueError: a pin that is not exact (``check_pins``).
    """
    progress = progress or (lambda line: log.info("%s", line))
    pins = check_pins(packages)
    lean = _build_lean(client, progress, base, force and not pins)
    return _build_packages(client, lean, pins, progress, force) if pins else lean


def _build_lean(client, progress: Progress, base: str | None, force: bool) -> str:
    tag = image_tag()
    if not force and image_exists(client, tag):
        progress(f"{tag} is already built")
        return tag
    if base is None:
        if _base_available(client, DEFAULT_BASE, progress):
            base = DEFAULT_BASE
        elif image_exists(client, BOOTSTRAP_BASE):
            base = BOOTSTRAP_BASE
        else:
            base = bootstrap_base(client, progress)
    progress(f"building {tag} on {base}")
    _run_build(client, _build_context(), tag, progress, {"BASE": base}, {"grpo-code.sandbox-image": "1"})
    return tag


def _build_packages(client, lean: str, pins: tuple[str, ...], progress: Progress, force: bool) -> str:
    tag = image_tag(pins)
    if not force and image_exists(client, tag):
        progress(f"{tag} is already built")
        return tag
    progress(f"building {tag}: {lean} with {', '.join(pins)}")
    try:
        _run_build(client, _packages_context(lean, tag, pins, progress), tag, progress, {},
                   {"grpo-code.sandbox-image": "1", "grpo-code.lean-image": lean, "grpo-code.packages": " ".join(pins)},
                   nocache=force)
    finally:  # the install stage's images, built or not
        client.images.prune(filters={"dangling": True, "label": f"{INSTALL_LABEL}={tag}"})
    return tag


def _run_build(client, context: io.BytesIO, tag: str, progress: Progress, buildargs: dict[str, str],
               labels: dict[str, str], nocache: bool = False) -> None:
    tail: list[str] = []
    stream = client.api.build(fileobj=context, custom_context=True, tag=tag, rm=True, forcerm=True, decode=True,
                              buildargs=buildargs, network_mode="host", labels=labels, nocache=nocache)
    for chunk in stream:
        if "error" in chunk:
            raise SandboxError(f"building {tag} failed: {chunk['error']}\n" + "".join(tail[-20:]))
        text = chunk.get("stream", "")
        if text.strip():
            tail.append(text)
            progress(text.rstrip())
    if not image_exists(client, tag):
        raise SandboxError(f"building {tag} ended without an image:\n" + "".join(tail[-20:]))


def _packages_context(lean: str, tag: str, pins: tuple[str, ...], progress: Progress) -> io.BytesIO:
    """The build context of a packages image: its Dockerfile, pip's wheel, the requirements (the
    pins) and the CA certificates this host trusts (``ca_certificates``), so that pip in the build
    (and pip in the environments where it builds a source distribution, which take its settings
    from the environment) reaches PyPI as this host does, through ``PIP_INDEX_URL`` where set."""
    files: dict[str, bytes] = {PIP_WHEEL: pip_wheel(progress), "requirements.txt": "".join(
        f"{pin}\n" for pin in pins).encode()}
    env = {"PIP_INDEX_URL": os.environ.get("PIP_INDEX_URL", "")}
    certificates = ca_certificates()
    if certificates is not None:
        files["ca.pem"] = certificates.read_bytes()
        env["PIP_CERT"] = "/tmp/install/ca.pem"
    dockerfile = PACKAGES_DOCKERFILE.format(tag=tag, lean=lean, label=INSTALL_LABEL, pip=PIP_WHEEL,
                                            files=" ".join(files),
                                            env="".join(f"{k}={shlex.quote(v)} " for k, v in env.items() if v))
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, data in {"Dockerfile": dockerfile.encode(), **files}.items():
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    buf.seek(0)
    return buf


def ca_certificates() -> Path | None:
    """The CA certificates this host's pip trusts, for pip in a packages image's build (the image
    has none, and PyPI may sit behind a proxy with a CA of its own): ``PIP_CERT``, else OpenSSL's
    default file (``SSL_CERT_FILE`` where set); None: neither exists (pip's own then)."""
    for candidate in (os.environ.get("PIP_CERT"), ssl.get_default_verify_paths().cafile):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def pip_wheel(progress: Progress, cache_dir: Path | None = None) -> bytes:
    """The wheel of pip (``PIP_WHEEL``), from the cache (``default_cache_dir``) or PyPI, checked
    against ``PIP_SHA256``.

    Raises:
        SandboxError: it cannot be fetched, or its bytes are not the pinned ones.
    """
    path = (cache_dir or default_cache_dir()) / PIP_WHEEL
    if path.is_file() and hashlib.sha256(data := path.read_bytes()).hexdigest() == PIP_SHA256:
        return data
    progress(f"fetching {PIP_WHEEL} from PyPI")
    try:
        with urllib.request.urlopen(PIP_URL, timeout=120) as response:
            data = response.read()
    except OSError as e:
        raise SandboxError(f"cannot fetch {PIP_URL} ({e}): a suite's packages are installed from PyPI, which "
                           "must be reachable while their image is built") from e
    if hashlib.sha256(data).hexdigest() != PIP_SHA256:
        raise SandboxError(f"{PIP_URL}: sha256 mismatch (not the pinned pip wheel)")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data
