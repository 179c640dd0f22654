"""One namespace for generated names, so they never collide with the user's own."""

import gast


class Namer:
    """Hands out fresh names (`base`, `base_1`, ...) avoiding every name in the source."""

    def __init__(self, used=()):
        self.used = set(used)
        self.generated = set()

    @classmethod
    def for_tree(cls, node):
        used = {n.id for n in gast.walk(node) if isinstance(n, gast.Name)}
        used |= {n.name for n in gast.walk(node)
                 if isinstance(n, (gast.FunctionDef, gast.ClassDef))}
        return cls(used)

    def new(self, base):
        name, i = base, 0
        while name in self.used:
            i += 1
            name = f"{base}_{i}"
        self.used.add(name)
        self.generated.add(name)
        return name
