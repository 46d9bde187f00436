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

# The runtimes' start-up state, made once here (sandbox/inside/runtimes/build.sh): class-data sharing archives for
# the JVMs, V8 start-up snapshots for Node.js and for the TypeScript compiler. Its folder is copied first, so that
# a change to the rest of the runner does not make them again.
COPY sandbox/inside/runtimes/ /opt/sandbox/inside/runtimes/
RUN sh /opt/sandbox/inside/runtimes/build.sh /opt/sandbox/runtimes

# The trusted in-container code, the folder whole (the image tag hashes every file in it).
COPY sandbox/inside/ /opt/sandbox/inside/

ENV GRPO_CODE_SANDBOX=1 LANG=C.UTF-8 PYTHONDONTWRITEBYTECODE=1
# The runner starts as root, with only the capabilities sandbox/container.py grants; the judge runs
# as 10000 and every program as 10001 (sandbox/inside/procs.py): the kernel keeps them apart.
USER 0:0
WORKDIR /tmp
CMD ["python3", "-I", "/opt/sandbox/inside", "runner"]
