# base: finished
