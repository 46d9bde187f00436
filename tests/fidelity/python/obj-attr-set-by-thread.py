import threading
import time


class Worker:
    def __init__(self):
        self.done = False
        self.count = 0

    def start(self):
        threading.Thread(target=self._run).start()

    def _run(self):
        for _ in range(5):
            time.sleep(0.01)
            self.count += 1
        self.done = True
