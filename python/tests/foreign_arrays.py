"""Stand-ins for other frameworks' arrays (as JAX's and Numba's are to tensorfft), shared by the
CPU tests and the GPU tests."""

from types import SimpleNamespace


class DLPackOnly:
    """An array reachable only through DLPack and, when ``take`` is given, the array API's
    ``__array_namespace__``, whose ``from_dlpack`` makes one of these from a result (``take``:
    the wrapped framework's ``from_dlpack``, e.g. ``numpy.from_dlpack``)."""

    def __init__(self, array, take=None):
        self.array = array
        self._take = take

    def __dlpack__(self, *args, **kwargs):
        return self.array.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()

    def __getattr__(self, name):
        take = self.__dict__.get("_take")
        if name == "__array_namespace__" and take is not None:
            return lambda: SimpleNamespace(from_dlpack=lambda y: DLPackOnly(take(y), take))
        raise AttributeError(name)


class InterfaceOnly:
    """An array known only by its CUDA array interface."""

    def __init__(self, array):
        self.array = array
        self.__cuda_array_interface__ = array.__cuda_array_interface__
