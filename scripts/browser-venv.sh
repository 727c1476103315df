# Sourced by the browser tests and the studio benchmark: the selenium virtual environment under
# .build/, made on first use from Tests/browser/requirements.txt. Sets `venv`.
venv=.build/browser-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r Tests/browser/requirements.txt
fi
