# Inference server package: HTTP front end, model runner and auxiliary ONNX classifier.
__version__ = "0.4.2"
