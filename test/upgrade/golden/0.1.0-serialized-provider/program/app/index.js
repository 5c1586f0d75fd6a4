console.log("golden");
