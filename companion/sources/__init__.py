"""Frame sources: the camera module, an OpenCV device or video, a folder, the simulated table."""
