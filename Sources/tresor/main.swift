print("tresor")
