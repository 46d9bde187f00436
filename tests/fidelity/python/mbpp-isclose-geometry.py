import math


def area_circle(r):
    return math.pi * r * r


def lateralsurface_cone(r, h):
    l = math.sqrt(r * r + h * h)
    LSA = math.pi * r * l
    return LSA


def volume_sphere(r):
    return (4 / 3) * math.pi * r ** 3
