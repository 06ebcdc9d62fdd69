# A class of another module whose objects hold a stream of their own
# (PatrickStar's CUDAContext, a singleton through its metaclass).
import torch
from registry import Registered


class Singleton(type):
    _instances = {}

    def __call__(cls, *args, **kwargs):
        if cls not in cls._instances:
            cls._instances[cls] = super().__call__(*args, **kwargs)
        return cls._instances[cls]


class CopyContext(metaclass=Singleton):
    def __init__(self):
        self.copy_stream = torch.cuda.Stream()

    def fork(self):
        self.copy_stream.wait_stream(torch.cuda.current_stream())


class ForeignContext(metaclass=Registered):
    def __init__(self):
        self.copy_stream = torch.cuda.Stream()
