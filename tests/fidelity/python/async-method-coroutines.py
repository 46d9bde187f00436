import asyncio


class Service:
    def __init__(self):
        self.handled = []

    async def handle(self, x):
        await asyncio.sleep(0)
        self.handled.append(x)
        return x + 1


async def run_batch(xs):
    svc = Service()
    return await asyncio.gather(*(svc.handle(x) for x in xs))
