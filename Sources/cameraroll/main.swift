print("cameraroll")
