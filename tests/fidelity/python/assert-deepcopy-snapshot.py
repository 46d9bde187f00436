import copy


class History:
    def __init__(self):
        self.states = []

    def record(self, state):
        self.states.append(copy.deepcopy(state))

    def at(self, i):
        return copy.deepcopy(self.states[i])

    def __len__(self):
        return len(self.states)


def snapshot(state):
    return copy.deepcopy(state)
