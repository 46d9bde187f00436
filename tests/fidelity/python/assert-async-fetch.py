import asyncio


async def fetch(x):
    await asyncio.sleep(0)
    return x * 2


async def fetch_all(xs):
    return list(await asyncio.gather(*(fetch(x) for x in xs)))
