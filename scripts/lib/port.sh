# Sourced by scripts that start a local server: free_port PREFERRED prints PREFERRED
# when nothing listens there on 127.0.0.1, else a port the system has free.
# shellcheck shell=bash
free_port() {
  python3 - "$1" <<'PY'
import socket, sys
def bindable(port):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return None
        return s.getsockname()[1]
print(bindable(int(sys.argv[1])) or bindable(0))
PY
}
