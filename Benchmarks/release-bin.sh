# Sourced by the benchmark scripts, with the products they run as arguments: sets `work`, a
# temporary directory removed on exit, and `bin`, the directory of the release binaries, built
# here unless BIN names a directory that holds them already.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=${BIN:-}
if [ -z "$bin" ]; then
    for product in "$@"; do swift build -c release --product "$product" >/dev/null; done
    bin=$(swift build -c release --show-bin-path)
fi
