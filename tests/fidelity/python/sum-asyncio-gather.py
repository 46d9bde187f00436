import asyncio
import sys


async def chunk_sum(values):
    await asyncio.sleep(0)
    return sum(values)


async def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    values = list(map(int, data[1:n + 1]))
    step = 10000
    parts = await asyncio.gather(*(chunk_sum(values[i:i + step]) for i in range(0, len(values), step)))
    print(sum(parts))


asyncio.run(main())
