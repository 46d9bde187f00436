"""Build the sandbox image from the project's Dockerfile, online or offline.

The tag carries a hash of everything baked into the image (the Dockerfile and the folder
``sandbox/inside``), so a changed runner is never tested against a stale image. The Dockerfile is
the top-level one of a source checkout, or the copy that an installed wheel carries inside this
package; either way the tag is the same. Where the Dockerfile's base
(``debian:bookworm-slim``) cannot be pulled, the base is made with ``debootstrap`` and
``docker import`` (cached as ``grpo-code-base:bookworm``) and the same Dockerfile is built on it.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path

from sandbox.types import ImageMissing, SandboxError

log = logging.getLogger(__name__)

IMAGE_REPOSITORY = "grpo-code-sandbox"
DEFAULT_BASE = "debian:bookworm-slim"
BOOTSTRAP_BASE = "grpo-code-base:bookworm"
DEBIAN_SUITE = "bookworm"
PACKAGE_DIR = Path(__file__).resolve().parent

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


def image_tag() -> str:
    """``grpo-code-sandbox:<12 hex>``, a hash of the Dockerfile and the files it copies in.

    ``GRPO_CODE_SANDBOX_IMAGE`` overrides it (an image built elsewhere).
    """
    override = os.environ.get("GRPO_CODE_SANDBOX_IMAGE")
    if override:
        return override
    digest = hashlib.sha256()
    digest.update(b"Dockerfile\0" + dockerfile_path().read_bytes() + b"\0")
    for name in baked_files():
        digest.update(name.encode() + b"\0" + (project_root() / name).read_bytes() + b"\0")
    return f"{IMAGE_REPOSITORY}:{digest.hexdigest()[:12]}"


def image_exists(client, tag: str | None = None) -> bool:
    """Whether the daemon of ``client`` has the image ``tag`` (default: this version's)."""
    import docker.errors

    try:
        client.images.get(tag or image_tag())
        return True
    except docker.errors.ImageNotFound:
        return False


def require_image(client, tag: str | None = None) -> str:
    """Return the tag of the sandbox image; raise ``ImageMissing`` saying how to build it."""
    tag = tag or image_tag()
    if not image_exists(client, tag):
        raise ImageMissing(
            f"the sandbox image {tag} is not built (it matches this version of the runner). "
            "Build it with: grpo-code sandbox build")
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
    cache_dir = cache_dir or Path(os.environ.get("GRPO_CODE_CACHE", Path.home() / ".cache" / "grpo-code"))
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
                force: bool = False) -> str:
    """Build the sandbox image (if it is not built yet, or ``force``); returns its tag.

    Args:
        client: a ``docker.DockerClient``.
        progress: called with one line of text per build step.
        base: the base image; default ``debian:bookworm-slim``, or the bootstrapped base
            when that cannot be pulled.
        force: rebuild even if the tag exists.

    Raises:
        SandboxError: the build failed (the message holds the build's last output).
    """
    progress = progress or (lambda line: log.info("%s", line))
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
    tail: list[str] = []
    stream = client.api.build(fileobj=_build_context(), custom_context=True, tag=tag, rm=True,
                              forcerm=True, decode=True, buildargs={"BASE": base}, network_mode="host",
                              labels={"grpo-code.sandbox-image": "1"})
    for chunk in stream:
        if "error" in chunk:
            raise SandboxError(f"building {tag} failed: {chunk['error']}\n" + "".join(tail[-20:]))
        text = chunk.get("stream", "")
        if text.strip():
            tail.append(text)
            progress(text.rstrip())
    if not image_exists(client, tag):
        raise SandboxError(f"building {tag} ended without an image:\n" + "".join(tail[-20:]))
    return tag
