class HTTPError(Exception):
    status = 500
    reason = "Internal Server Error"

    def __init__(self, url):
        super().__init__(url)
        self.url = url

    @property
    def is_client_error(self):
        return 400 <= self.status < 500

    def __str__(self):
        return f"{self.status} {self.reason}: {self.url}"


class NotFound(HTTPError):
    status = 404
    reason = "Not Found"


class ConfigError(Exception):
    pass


ROUTES = {"/": "home", "/about": "about"}


def fetch(url):
    if url not in ROUTES:
        raise NotFound(url)
    return ROUTES[url]


def load_setting(config, key):
    try:
        return config[key]
    except KeyError as e:
        raise ConfigError(f"missing setting {key!r}") from e


def parse_port(text):
    try:
        return int(text)
    except ValueError:
        raise ConfigError("port must be a number")
