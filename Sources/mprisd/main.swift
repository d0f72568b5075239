print("mprisd")
