class Connection:
    open_count = 0

    def __init__(self, host):
        self.host = host
        Connection.open_count += 1

    def __del__(self):
        Connection.open_count -= 1


def open_connections():
    return Connection.open_count
