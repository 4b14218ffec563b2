print("whereabouts")
