#!/bin/sh
# Build the runtimes' start-up state into OUT (the image's /opt/sandbox/runtimes), once, at image build;
# check each piece against the cold runtime; any failure fails the build. The sandbox's commands that
# use them are in ../languages.py.
#
#   java.jsa          a class-data sharing archive for the programs' JVMs: the JDK classes that Warm.java
#                     loads (what programs use most) and the JDK's default archive's, pre-parsed and laid
#                     out to be mapped, not loaded, by each test's JVM
#   javac.jsa         the same for javac, from compiling Warm.java
#   node-<MiB>.blob   a V8 start-up snapshot of Node.js ready to run a program (node_main.js), one per
#                     heap size (V8 refuses a snapshot built with other flags): the sizes tasks use most
#   tsc.blob          a V8 start-up snapshot of the TypeScript compiler with its declaration files parsed
#                     and bound (tsc_main.js)
#
#   sh build.sh OUT
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$1
NODE_HEAP_MB="64 128 256 512 1024"
TSC_ARGS="--target es2022 --lib es2022 --module commonjs --typeRoots /usr/share/nodejs/@types --types node
          --skipLibCheck --noEmitOnError --pretty false --newLine lf"
JAVA_RUN="-XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0"
WORK=$(mktemp -d)
mkdir -p "$OUT"
cd "$WORK"
printf '3 10 -20 30\nbeta 7.5\n2.25 end\n' > warm.in

# -- Java: what Warm.java loads, JDK classes only (a job's own classes are new every time) -------------
jdk_only() {  # class-list lines of JDK classes, and the method-handle forms the JDK generates
  grep -hE '^((java|javax|jdk|sun|com/sun)/|@lambda-form-invoker |@lambda-proxy (java|javax|jdk|sun|com/sun)/)' "$@" || true
}
cp "$HERE/Warm.java" .
javac -J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 -J-XX:DumpLoadedClassList=javac.list -encoding UTF-8 -d . Warm.java
java $JAVA_RUN -XX:DumpLoadedClassList=java.list -cp . Warm < warm.in > warm.out
DEFAULT_LIST=$(dirname "$(readlink -f "$(command -v java)")")/../lib/classlist
jdk_only "$DEFAULT_LIST" java.list | sort -u > java.classes
jdk_only "$DEFAULT_LIST" javac.list | sort -u > javac.classes
java -XX:+UseSerialGC -Xshare:dump -XX:SharedClassListFile=java.classes -XX:SharedArchiveFile="$OUT/java.jsa" > java.dump
java -XX:+UseSerialGC -Xshare:dump -XX:SharedClassListFile=javac.classes -XX:SharedArchiveFile="$OUT/javac.jsa" > javac.dump
# -Xshare:on: fail here, not fall back to a cold start there, if an archive does not map
mkdir checked
javac -J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 -J-Xshare:on -J-XX:SharedArchiveFile="$OUT/javac.jsa" \
      -encoding UTF-8 -d checked Warm.java
java $JAVA_RUN -Xshare:on -XX:SharedArchiveFile="$OUT/java.jsa" -cp checked Warm < warm.in > checked.out
cmp warm.out checked.out

# -- Node.js: a snapshot per heap size, each checked on a program ---------------------------------------
printf 'const [a, b] = require("fs").readFileSync(0, "utf8").split(" ").map(Number);\n%s\n' \
       'console.log(a + b, require.main === module, process.argv[1] === __filename);' > sum.js
for mb in $NODE_HEAP_MB; do
  node --max-old-space-size="$mb" --snapshot-blob "$OUT/node-$mb.blob" --build-snapshot "$HERE/node_main.js"
  test "$(echo 3 4 | node --snapshot-blob "$OUT/node-$mb.blob" --max-old-space-size="$mb" sum.js)" \
       = "7 true true"
done

# -- TypeScript: the warm compiler, checked against a cold tsc (output files, messages, status) ---------
# shellcheck disable=SC2086
node --snapshot-blob "$OUT/tsc.blob" --build-snapshot "$HERE/tsc_main.js" $TSC_ARGS
TSC=/usr/share/nodejs/typescript/lib/tsc.js
mkdir cold warm
printf 'const xs: number[] = [3, 1, 2];\nconsole.log(xs.sort((a, b) => a - b).join(" "));\n' > cold/good.ts
printf 'const x: number = "s";\nlet y = undefinedName + 1;\nfunction f( {\n' > cold/bad.ts
cp cold/good.ts cold/bad.ts warm/
for program in good.ts bad.ts; do
  # shellcheck disable=SC2086
  (cd cold && set +e; node "$TSC" $TSC_ARGS "$program" > "$program.out"; echo "status $?" >> "$program.out")
  # shellcheck disable=SC2086
  (cd warm && set +e; node --snapshot-blob "$OUT/tsc.blob" "$TSC" $TSC_ARGS "$program" > "$program.out";
   echo "status $?" >> "$program.out")
  cmp "cold/$program.out" "warm/$program.out"
done
cmp cold/good.js warm/good.js
test ! -e warm/bad.js

chmod 0644 "$OUT"/*
cd /
rm -rf "$WORK"
ls -l "$OUT"
