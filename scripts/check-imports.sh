#!/usr/bin/env bash
# Holds each target to what ARCHITECTURE.md says it may import: a module that is not on a
# target's list fails the check, naming the file. Then the boundaries that are not imports:
# each module's diagnostic codes live in its own catalogue. Run by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

system="Glibc Darwin Dispatch Synchronization _Concurrency"
declare -A allowed=(
    [RoutineKit]="CYAML CFileAttributes CSpawn"
    [RoutineTerminal]=""
    [RoutineHistory]="RoutineKit CSQLite CZlib FoundationEssentials"
    [RoutineLanguageServer]="RoutineKit"
    [RoutineStudio]="RoutineKit RoutineHistory CSpawn CQREncode Foundation FoundationEssentials Hummingbird HTTPTypes NIOCore Logging ServiceLifecycle"
    [routine]="RoutineKit RoutineHistory RoutineTerminal RoutineLanguageServer CSpawn ArgumentParser Foundation"
    [routine-studio]="RoutineStudio RoutineHistory RoutineKit"
    [routine-gen]="RoutineKit"
    [page-assets]="Foundation"
)
status=0
for target in "${!allowed[@]}"; do
    ok=" $system ${allowed[$target]} "
    while IFS=: read -r file module; do
        case "$ok" in *" $module "*) ;; *)
            echo "$file imports $module, which ARCHITECTURE.md does not allow in $target" >&2
            status=1 ;;
        esac
    done < <(grep -rHoE '^(@[A-Za-z_]+ )*import (class |struct |enum |func )?[A-Za-z_]+' "Sources/$target" --include='*.swift' \
        | sed -E 's/:.*import (class |struct |enum |func )?/:/')
done

# The language core declares no studio (E6xx, but E601, the refusal its own editor makes) and no
# sync (E7xx) codes: those are RoutineStudio's and RoutineHistory's (ARCHITECTURE.md, "Where to find").
if grep -rnE '"E(6[0-9]{2}|7[0-9]{2})"' Sources/RoutineKit --include='*.swift' | grep -v '"E601"' >&2; then
    echo "RoutineKit declares studio or sync diagnostic codes above; declare them in RoutineStudio or RoutineHistory" >&2
    status=1
fi

# One JSON reader: RoutineKit's (`Support/JSON/`) reads every JSON the project reads.
if grep -rnw 'JSONDecoder' Sources --include='*.swift' >&2; then
    echo "JSONDecoder is used above; read JSON with RoutineKit's JSONParser (or JSONPullReader)" >&2
    status=1
fi
# One SQLite boundary: only RoutineHistory's `SQLite/` calls SQLite or imports it; the rest
# reads rows through its `Row` and writes through its statements (ARCHITECTURE.md).
if grep -rnE 'sqlite3_|^import CSQLite' Sources --include='*.swift' | grep -v '^Sources/RoutineHistory/SQLite/' >&2; then
    echo "SQLite is called above outside RoutineHistory/SQLite/; add what is missing to that layer" >&2
    status=1
fi
exit $status
