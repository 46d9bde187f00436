import asyncio


async def fetch(x, delay=0.0):
    await asyncio.sleep(delay)
    return x * 2


async def slow(seconds):
    await asyncio.sleep(seconds)
    return "done"


async def ticker(n):
    for i in range(n):
        await asyncio.sleep(0)
        yield i
