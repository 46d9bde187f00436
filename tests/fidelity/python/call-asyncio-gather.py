import asyncio


async def fetch(i, delay):
    await asyncio.sleep(delay)
    return i * 10


async def gather_all(delays):
    return await asyncio.gather(*(fetch(i, d) for i, d in enumerate(delays)))


def run_all(delays):
    return asyncio.run(gather_all(delays))
