# base: starter
