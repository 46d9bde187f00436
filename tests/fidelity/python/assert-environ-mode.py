import os


def get_mode():
    return os.environ.get("APP_MODE", "prod")


def set_mode(mode):
    os.environ["APP_MODE"] = mode
