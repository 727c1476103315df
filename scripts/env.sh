# Sourced by every script of the project (tests, CI, benchmarks, fuzzing): finds the Swift
# toolchain once, and makes the Python virtual environments the real-client tests use.

# Swift: the one on PATH, else the toolchain's usual install folder.
if ! command -v swift >/dev/null 2>&1; then
    for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
        if [ -x "$dir/swift" ]; then PATH="$dir:$PATH"; break; fi
    done
    export PATH
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "swift not found: install Swift 6 and put its bin folder on PATH" >&2
    exit 1
fi

# python_venv NAME REQUIREMENTS [PYTHON]: sets `venv` to .build/NAME-venv, made from the
# requirements file on first use and again whenever that file changes. PYTHON (default
# python3) is the interpreter that makes it, e.g. a pyenv version a requirement needs.
python_venv() {
    venv=".build/$1-venv"
    local requirements=$2 python=${3:-python3}
    if [ ! -x "$venv/bin/python" ] || ! cmp -s "$requirements" "$venv/requirements.txt"; then
        rm -rf "$venv"
        "$python" -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
        cp "$requirements" "$venv/requirements.txt"
    fi
}

# step NAME MINUTES COMMAND...: runs one phase of the tests or CI with a time limit, and says
# how long it took. A phase that hangs is stopped at its limit and named, so that a stuck test
# fails its phase instead of running the whole job past CI's own limit without a word.
step() {
    local name=$1 minutes=$2 start=$SECONDS status=0; shift 2
    echo "== $name: started at $(date -u +%H:%M:%S)" >&2
    timeout --kill-after=30 "${minutes}m" "$@" </dev/null || status=$?
    if [ "$status" = 124 ] || [ "$status" = 137 ]; then
        echo "== $name: stopped after its limit of $minutes minutes" >&2
    fi
    echo "== $name: $((SECONDS - start)) s, exit $status" >&2
    return "$status"
}
