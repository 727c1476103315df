# Sourced by the browser tests and the studio benchmark: the selenium virtual environment
# under .build/, from Tests/browser/requirements.txt. Sets `venv`. axe-selenium-python 3
# (which bundles axe-core 4.10) needs Python 3.12: pyenv's newest 3.12 when there is one
# (with an older Python, pip would pick a release that bundles an axe-core of 2018).
python=python3
if command -v pyenv >/dev/null 2>&1; then
    version=$(pyenv versions --bare 2>/dev/null | grep -E '^3\.12\.[0-9]+$' | sort -t. -k3 -n | tail -1)
    if [ -n "$version" ]; then python=$(PYENV_VERSION=$version pyenv which python); fi
fi
python_venv browser Tests/browser/requirements.txt "$python"
