import FXBatch
