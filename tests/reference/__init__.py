"""Plain-Python reference engines (the slow twins of the kernels)."""
