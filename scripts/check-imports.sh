#!/usr/bin/env bash
# Holds each target to what ARCHITECTURE.md says it may import: a module that is not on a
# target's list fails the check, naming the file. Run by scripts/test.sh.
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
exit $status
