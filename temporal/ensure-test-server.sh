#!/bin/sh
# Prints the path of Temporal's time-skipping test server, fetching it when the machine has none.
# The workflow tests (test/integration/workflows/) run under `TestWorkflowEnvironment.createTimeSkipping`,
# whose own downloader needs the internet. The same server is published on Maven Central as the Java
# SDK's `io.temporal:temporal-test-server` (the native binary the SDK downloads is built from it), so
# Maven fetches its jars once into the cache and a small launcher runs `io.temporal.testserver.TestServer
# <port>` the way the SDK runs the binary. Java 17 and Maven come from Debian when they are missing.
# Order: $TEMPORAL_TEST_SERVER_PATH, our cached launcher, else a fetch (about 10 s, 40 MB).
set -eu
version=1.38.0
cache_root="${LCS_CACHE_DIR:-$HOME/.cache/language-capture}"
dir="$cache_root/temporal-test-server-$version"
launcher="$dir/temporal-test-server"

if [ -n "${TEMPORAL_TEST_SERVER_PATH:-}" ] && [ -x "$TEMPORAL_TEST_SERVER_PATH" ]; then echo "$TEMPORAL_TEST_SERVER_PATH"; exit 0; fi
if [ -x "$launcher" ]; then echo "$launcher"; exit 0; fi

if ! command -v java >/dev/null 2>&1 || ! command -v mvn >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "Installing Java and Maven (Debian) for Temporal's test server ..." >&2
    # bin/with-toolchain.sh may be installing other packages at the same time: wait for dpkg's lock.
    apt_install() { apt-get install -y -qq -o DPkg::Lock::Timeout=300 default-jre-headless maven >/dev/null 2>&1; }
    apt_install || { apt-get update -qq >/dev/null 2>&1 && apt_install; }
  fi
  command -v java >/dev/null 2>&1 && command -v mvn >/dev/null 2>&1 ||
    { echo "No Temporal test server: it needs Java (17+) and Maven; install them, or set TEMPORAL_TEST_SERVER_PATH to a test server binary" >&2; exit 1; }
fi

echo "Fetching Temporal's test server $version (Maven Central, io.temporal:temporal-test-server) ..." >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local</groupId><artifactId>temporal-test-server-fetch</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>io.temporal</groupId><artifactId>temporal-test-server</artifactId><version>$version</version></dependency>
    <!-- Quiets SLF4J's "no binding" lines on every start. -->
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-nop</artifactId><version>1.7.36</version></dependency>
  </dependencies>
</project>
EOF
# Maven prints its errors on stdout, with colour codes even when quiet: shown only when it fails.
(cd "$tmp" && mvn -q -B dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp/lib" > "$tmp/mvn.log" 2>&1) ||
  { cat "$tmp/mvn.log" >&2; echo "Maven could not fetch io.temporal:temporal-test-server:$version" >&2; exit 1; }
mkdir -p "$dir"
rm -rf "$dir/lib"
mv "$tmp/lib" "$dir/lib"
# exec: the SDK stops the server by killing the process it started, so Java must be that process.
# C1 only and the serial collector: a test server lives for one test file and serves a few workflows.
cat > "$launcher.partial" <<'EOF'
#!/bin/sh
dir=$(cd "$(dirname "$0")" && pwd)
exec java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss512k -Xmx512m -cp "$dir/lib/*" io.temporal.testserver.TestServer "$@"
EOF
chmod +x "$launcher.partial"
mv "$launcher.partial" "$launcher"
echo "$launcher"
