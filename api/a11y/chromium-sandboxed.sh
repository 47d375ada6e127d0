#!/bin/sh
# Starts Chromium with its own sandbox. Chromium will not run its sandbox as root, so when this runs
# as root (a developer's container, CI) the browser is started as an unprivileged user instead
# (CTPO_BROWSER_UID, 65534 "nobody" by default), with the profile folder Playwright made handed to
# that user; as any other user (the runner image's) it starts Chromium as it is.
set -eu
chromium="${CTPO_SANDBOXED_CHROMIUM:?the Chromium to start}"
if [ "$(id -u)" != 0 ]; then
  exec "$chromium" "$@"
fi
uid="${CTPO_BROWSER_UID:-65534}"
profile=""
for arg in "$@"; do
  case "$arg" in
    --user-data-dir=*) profile="${arg#--user-data-dir=}" ;;
  esac
done
if [ -n "$profile" ]; then
  chown -R "$uid:$uid" "$profile"
  export HOME="$profile"
fi
exec setpriv --reuid="$uid" --regid="$uid" --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs -- "$chromium" "$@"
