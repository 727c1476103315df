# Sourced by the browser tests and the studio benchmark: the selenium virtual environment
# under .build/, from Tests/browser/requirements.txt. Sets `venv`.
python_venv browser Tests/browser/requirements.txt
